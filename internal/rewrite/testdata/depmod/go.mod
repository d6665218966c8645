module example.com/depmod

go 1.24

require example.com/helper v0.0.0

replace example.com/helper => ./helper
