// Package bugs is morpheus's benchmark suite of distributed-system bugs:
// message-passing scenarios re-created from the Morpheus paper (Yuan and
// Yang, ASPLOS'20) and the P# paper (Deligiannis et al., FAST'16) as small Go
// systems on the actor API. docs/bug-suite.md in the repository is the
// suite's specification: every scenario's system, bug, fix, hit and options.
//
// Each Scenario is a system with real protocol logic in its processes and a
// harness that plays the environment (clients, failures, nondeterministic
// inputs). The bug is present by default; Test(true) runs the fixed system.
// A Hit predicate recognises the scenario's intended failure by kind and
// message: any other failure is not a hit, and any failure of a fixed system
// means the scenario is broken. "morpheus bench bugs" measures the hit
// ratio of every strategy on every scenario (Morpheus Table 3), and the tests
// check that every bug is found and every fix passes.
//
// # The scenarios
//
//	gproc-1        GProc1        delayed fault report (gen_leader)         assertions: request answered, views agree
//	locks-1        Locks1        prematurely reset lock version            liveness monitor (hot while a request waits)
//	ms-1           MS1           member leaves while another is added      the crash (a panic) after a Down
//	mnesia-2       Mnesia2       mnesia_down taken as commit ack           assertion after node restart and log replay
//	C6023          C6023         promise reports the promised ballot       assertions on the commit histories
//	storage        Storage       replica counted twice                     safety monitor
//	extent-repair  ExtentRepair  expired node's sync report applied        liveness monitor with HotLimit
//
// StorageLiveness (bug B of the storage system, internal/systems/storage) is
// an extra: every schedule hits it, so it says nothing about strategies and
// is not in the table.
// Each scenario's doc comment describes its system, bug, fix and detector.
//
// # Making the bugs findable but not trivial
//
// Each harness follows the test the paper describes. The choices below
// decide how often a schedule hits; they were made so that, as in the
// papers, the bug needs a specific ordering of a few operations among many,
// not to favour a strategy:
//
//   - gproc-1 boots three nodes, as the paper's test did; the cluster is left
//     to settle (a Sleep, which in virtual time waits until nothing can run)
//     before the requests, so the race is the bootstrapping itself: a
//     prober's lookup must precede the candidate's registration and its
//     report must follow the handshake.
//   - locks-1 is the cast of Fig. 6 (A, B, C; x, y). A client forwards only
//     the entry of a lock it waits for, so C gets a stale entry of x only
//     through the circular wait of A and B, and then C's request for x must
//     come after both released x.
//   - ms-1's supervisors start as their nodes boot (register, join, read the
//     members, query them): the shutdown of B, issued as C's node boots,
//     must land after C read the list and before B answers. (When B was
//     instead stopped by a message that waited in its mailbox, nearly every
//     schedule hit.)
//   - mnesia-2's restart (a crash, then a restart) is issued with the schema
//     change; the crash must land after b prepared and before b synced the
//     commit.
//   - C6023 runs three clients once each, as the paper's model did; it is
//     rare by nature (the paper's POS hit it 20 times in 100,000 trials, and
//     random walk never).
//   - storage is internal/systems/storage as it is.
//   - extent-repair's network holds a sync report 0, 1 or 2 s (a controlled
//     choice), a node expires after two rounds without a heartbeat, and the
//     repair loop runs half a period after the expiration loop: the crashed
//     node's last report must be held 2 s and handled right after the
//     expiration.
//
// "morpheus bench bugs" measures every strategy's hit ratio on each
// scenario; BENCHMARKS.md keeps the figures beside Morpheus Table 3 (whose
// range, 1e-4 to 0.3, the scenarios were made to fall in: never every
// iteration).
//
// # Sized like the papers' systems
//
// The scenarios model only the processes and messages a bug involves, so a
// large share of their ops conflict, where in the papers' full systems a small
// one did (Morpheus Table 4: gproc-1 326 of 6593 ops). Two options make a
// scenario larger without changing any outcome (the fixed variants still
// pass): WithWork puts private updates between each process's messages, as
// real servers update their own tables; WithBackground adds processes beside
// the system that never touch it. bench bugs -work K and -background P apply
// them; bench bugs prints the share of conflicting ops per scenario, and
// BENCHMARKS.md keeps it, with and without them, and what they change.
package bugs
