module sctplain

go 1.26
