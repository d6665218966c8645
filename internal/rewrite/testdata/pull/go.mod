module example.com/pull

go 1.23
