package storage

import "github.com/morpheus-go/morpheus"

// ClientReq asks the server to store Data.
type ClientReq struct {
	Client morpheus.PID
	Data   int
}

// Ack tells the client that Data is stored on three nodes.
type Ack struct{ Data int }

// ReplReq asks a storage node to store Data.
type ReplReq struct{ Data int }

// Sync reports a storage node's log (its latest data) to the server.
type Sync struct {
	Node int
	PID  morpheus.PID
	Data int
}

// tick is a storage node's timer message.
type tick struct{}
