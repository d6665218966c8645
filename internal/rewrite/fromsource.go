package rewrite

// LoadFromSource is Load with every package of the load type-checked from
// source, the standard library too, even when the patterns match every
// package whose syntax the rewrite reads: what Load's plans, which take the
// standard library from export data, must match byte for byte. It is for
// the test that compares the two (package rewrite/fromsource): each call
// type-checks the standard library, minutes under -race on a busy machine.
func LoadFromSource(cfg LoadConfig) ([]*Package, error) {
	cfg.allFromSource = true
	return Load(cfg)
}
