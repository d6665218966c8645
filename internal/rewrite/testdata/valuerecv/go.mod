module example.com/valuerecv

go 1.24
