module example.com/incr

go 1.24
