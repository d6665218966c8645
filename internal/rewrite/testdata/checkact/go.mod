module example.com/checkact

go 1.24
