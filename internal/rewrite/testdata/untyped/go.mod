module example.com/untyped

go 1.23
