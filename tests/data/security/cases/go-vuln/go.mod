module example.com/app

go 1.23

require (
	github.com/google/uuid v1.6.0
	golang.org/x/text v0.21.0 // indirect
)

require github.com/spf13/cobra v1.8.1
