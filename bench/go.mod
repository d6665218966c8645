module github.com/morpheus-go/morpheus/bench

go 1.26.0

require (
	github.com/morpheus-go/morpheus v0.0.0
	go.etcd.io/raft/v3 v3.7.0
	google.golang.org/protobuf v1.36.11
)

require (
	github.com/anishathalye/porcupine v1.3.1 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)

replace github.com/morpheus-go/morpheus => ..
