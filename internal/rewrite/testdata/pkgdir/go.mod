module example.com/pkgdir

go 1.22
