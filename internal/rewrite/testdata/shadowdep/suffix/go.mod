module example.com/suffix

go 1.24
