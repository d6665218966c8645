module github.com/morpheus-go/morpheus

go 1.26.0

require (
	github.com/anishathalye/porcupine v1.3.1
	go.etcd.io/raft/v3 v3.7.0
	golang.org/x/tools v0.52.0
	google.golang.org/protobuf v1.36.11
)

require (
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
