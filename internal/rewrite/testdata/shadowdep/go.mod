module example.com/shadowdep

go 1.24

require example.com/suffix v0.0.0

replace example.com/suffix => ./suffix
