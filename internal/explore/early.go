package explore

// The early-timer portfolio. Early timers (core.Config.EarlyTimers) let the
// strategy fire the nearest deadline, if at most a millisecond ahead of the
// clock, while goroutines can still run: the schedules of a slow machine,
// where a goroutine is descheduled for up to a millisecond. Some bugs need
// them (an AfterFunc of a nanosecond that fires while its owner holds the
// lock it wants; a ticker that finds expired entries while the goroutines
// adding them run); every other schedule of a run keeps the virtual clock
// standing while work is pending, the fast machine, whose timing the
// ordinary tests' time-outs assume. A run with Config.Early < 0 (-1) mixes the
// two by iteration, as a portfolio of strategies mixes strategies: the
// iterations i with i%4 == 1 fire early up to twice (few firings: the
// first nanosecond timers a loop sets), those with i%4 == 3 up to 24 times
// (enough for a run whose early firings go first to many short sleeps
// before the deadline the bug needs), the others never. Which iteration
// gets which is a function of its index alone, and a failure's trace
// records the firings its iteration had (recordOptions), which a replay
// and shrinking apply, so the portfolio changes no replay.

// earlyPortfolio is the early timer firings of iterations by index mod 4.
var earlyPortfolio = [4]int{0, 2, 0, 24}

// earlyFor returns the early timer firings of iteration i.
func (c *Config) earlyFor(i int) int {
	if c.Early >= 0 {
		return c.Early
	}
	return earlyPortfolio[i%len(earlyPortfolio)]
}
