package rewrite

import (
	"strconv"
	"strings"
)

// shadowImports redirects the file's imports of shadowed standard packages
// to their shadows (shadow.go), under the name the file used: every
// rewritten package then sees the shadow's types, never the standard
// library's.
func (w *fileRewriter) shadowImports(shadow map[string]string) {
	for _, imp := range w.file.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		s, ok := shadow[path]
		if !ok {
			continue
		}
		text := strconv.Quote(s)
		if imp.Name == nil {
			text = shadowImportName(path) + " " + text
		}
		w.edits = append(w.edits, edit{start: w.off(imp.Path.Pos()), end: w.off(imp.Path.End()),
			emit: func(_ *renderer, b *strings.Builder) { b.WriteString(text) }})
	}
}
