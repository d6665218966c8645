// Package base holds package-level variables that other packages write.
package base

import "os"

// Level is written by package setter only.
var Level int

// Get reads Level.
func Get() int { return Level }

// Args reads os.Args, which setter's tests write.
func Args() int { return len(os.Args) }
