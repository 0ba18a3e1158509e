package redis_test

import (
	"strconv"

	goredis "github.com/redis/go-redis/v9"
)

func newClient(port int) *goredis.Client {
	return goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:" + strconv.Itoa(port)})
}
