// Package writer's tests write files of their package's directory, as
// tests that upload into a fixed path of it or update golden files do.
package writer

import "os"

// Save writes content to path and reads it back.
func Save(path, content string) (string, error) {
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		return "", err
	}
	b, err := os.ReadFile(path)
	return string(b), err
}
