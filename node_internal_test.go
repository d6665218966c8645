package morpheus

import (
	"strconv"
	"testing"
)

// TestCountSpawn: a node numbers the processes of each name in spawn order,
// before and after its counts move from the slice to the map.
func TestCountSpawn(t *testing.T) {
	var n Node
	for round := range 3 {
		for i := range 2 * maxSpawnNames {
			if got := n.countSpawn("p" + strconv.Itoa(i)); got != round {
				t.Fatalf("round %d, name %d: %d earlier, want %d", round, i, got, round)
			}
		}
	}
	if n.spawnedMap == nil || n.spawned != nil {
		t.Fatal("the counts did not move to the map")
	}
}
