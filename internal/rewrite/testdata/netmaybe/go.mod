module example.com/netmaybe

go 1.24
