package outside

import (
	"testing"
	"testing/synctest"
)

func TestBlank(_ *testing.T) { open() }

func TestUnnamed(*testing.T) { open() }

func TestBubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		go open()
		synctest.Wait()
	})
}
