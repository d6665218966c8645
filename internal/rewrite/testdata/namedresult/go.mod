module example.com/namedresult

go 1.24
