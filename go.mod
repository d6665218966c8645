module github.com/morpheus-go/morpheus

go 1.26
