module example.com/netmain

go 1.24
