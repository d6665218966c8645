package morpheus

import (
	"strconv"

	"github.com/morpheus-go/morpheus/internal/core"
)

// A named process's task name and identity: the process's name, made unique
// per node (the k-th process called "client" is "client#k" from the second
// on, and that is its identity), then "@node". An iteration spawns the same
// processes as the one before it, so each worker keeps the names it has
// built (taskNames) instead of concatenating them again.
type taskName struct {
	full string
	key  uint64 // core.NameKey(node, name#k)
}

type nameParts struct {
	node, name string
	k          int
}

// taskNames is a worker's cache of task names, kept across its iterations
// (core.Run.Layer). It stops growing at maxTaskNames: a test that makes up
// new names every iteration builds the rest each time.
type taskNames map[nameParts]taskName

const maxTaskNames = 4096

// names returns the worker's cache.
func (e *Env) names() taskNames {
	l := e.run.Layer()
	c, _ := (*l).(taskNames)
	if c == nil {
		c = taskNames{}
		*l = c
	}
	return c
}

// of returns the task name and identity of the process that is the k-th
// (from 0) called name on node.
func (c taskNames) of(node, name string, k int) (string, uint64) {
	parts := nameParts{node, name, k}
	if n, ok := c[parts]; ok {
		return n.full, n.key
	}
	unique := name
	if k > 0 {
		unique += "#" + strconv.Itoa(k+1)
	}
	n := taskName{full: unique, key: core.NameKey(node, unique)}
	if node != "" {
		n.full += "@" + node
	}
	if len(c) < maxTaskNames {
		c[parts] = n
	}
	return n.full, n.key
}
