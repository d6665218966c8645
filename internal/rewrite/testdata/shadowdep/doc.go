// Package shadowdep has tests only.
package shadowdep
