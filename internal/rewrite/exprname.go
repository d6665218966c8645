package rewrite

import (
	"go/ast"
	"strconv"
	"strings"
)

// maxExprName bounds the source text an access passes to rt as the name of
// its location: reports name a location by it ("data race on c.m").
const maxExprName = 60

// exprName returns the source text of e as a Go string literal, for the
// name argument of rt's Read, Write, ReadMap, WriteMap and Point: spaces
// and line breaks collapsed, clipped to maxExprName bytes (on a rune
// boundary, with "…"). A & in front is left out: Point's address &c.n
// names the location c.n.
func (w *fileRewriter) exprName(e ast.Expr) string {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op.String() == "&" {
		e = ast.Unparen(u.X)
	}
	return nameLiteral(string(w.src[w.off(e.Pos()):w.off(e.End())]))
}

// nameLiteral returns s, collapsed and clipped as exprName says, quoted.
func nameLiteral(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > maxExprName {
		i := maxExprName
		for i > 0 && s[i]&0xC0 == 0x80 { // not inside a rune
			i--
		}
		s = s[:i] + "…"
	}
	return strconv.Quote(s)
}
