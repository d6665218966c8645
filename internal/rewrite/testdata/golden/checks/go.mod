module example.com/goldenchecks

go 1.26.0

require github.com/morpheus-go/morpheus v0.0.0

replace github.com/morpheus-go/morpheus => ../../../../..
