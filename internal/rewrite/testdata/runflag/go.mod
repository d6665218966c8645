module example.com/runflag

go 1.24
