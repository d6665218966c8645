module example.com/netshapes

go 1.24
