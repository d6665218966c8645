module example.com/httpshadow

go 1.24
