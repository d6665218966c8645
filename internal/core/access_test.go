package core

import "testing"

// TestRaceHandoffNotes: the three notes of a channel handoff (a, b, a on
// one object at one step) are taken as one, and nothing else is.
func TestRaceHandoffNotes(t *testing.T) {
	sync := func(at int, task int32, key uint64) raceNote { return raceNote{at: at, task: task, key: key} }
	tests := []struct {
		name  string
		notes []raceNote
		want  bool
	}{
		{"handoff", []raceNote{sync(3, 1, 9), sync(3, 2, 9), sync(3, 1, 9)}, true},
		{"two notes", []raceNote{sync(3, 1, 9), sync(3, 2, 9)}, false},
		{"other object", []raceNote{sync(3, 1, 9), sync(3, 2, 8), sync(3, 1, 9)}, false},
		{"third object", []raceNote{sync(3, 1, 9), sync(3, 2, 9), sync(3, 1, 8)}, false},
		{"other step", []raceNote{sync(3, 1, 9), sync(3, 2, 9), sync(4, 1, 9)}, false},
		{"third task", []raceNote{sync(3, 1, 9), sync(3, 2, 9), sync(3, 3, 9)}, false},
		{"an access", []raceNote{sync(3, 1, 9), {at: 3, task: 2, key: 9, access: true}, sync(3, 1, 9)}, false},
	}
	for _, tt := range tests {
		s := raceState{notes: tt.notes, next: 1} // the first note just taken
		b, ok := s.handoff()
		if ok != tt.want || ok && b != tt.notes[1].task {
			t.Errorf("%s: handoff() = %d, %v; want %v", tt.name, b, ok, tt.want)
		}
	}
}
