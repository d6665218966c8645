module example.com/tlsshadow

go 1.24
