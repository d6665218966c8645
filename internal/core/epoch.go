package core

import "time"

// DefaultEpoch is where an iteration's clock starts when Config.Epoch is
// zero: 2000-01-01 00:00:00 UTC, as a testing/synctest bubble's does.
var DefaultEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// Epoch returns the instant the iteration's clock starts at (Config.Epoch,
// or DefaultEpoch): what its tasks read of the clock is the epoch plus the
// virtual time (Wall, ReadWall). Nothing the scheduler decides depends on
// it; it only names the instants.
func (r *Run) Epoch() time.Time {
	if r.cfg.Epoch.IsZero() {
		return DefaultEpoch
	}
	return r.cfg.Epoch
}
