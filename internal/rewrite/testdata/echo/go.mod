module example.com/echo

go 1.24
