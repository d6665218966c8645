module example.com/realcrash

go 1.24
