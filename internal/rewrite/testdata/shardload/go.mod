module example.com/shardload

go 1.22
