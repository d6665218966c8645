module example.com/neighbours

go 1.24
