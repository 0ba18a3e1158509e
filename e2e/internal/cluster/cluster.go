package cluster

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"openvibe.live/backend/shared/testenv"
)

// JWTSecret signs the cluster's session tokens.
const JWTSecret = "e2e-cluster-secret-e2e-cluster-secret"

// Options says how many replicas of each service to run and what extra environment each
// service gets (KEY=value).
type Options struct {
	Gateways, Chats, APIs int
	GatewayEnv, ChatEnv   []string
	APIEnv                []string
}

// Cluster is a running deployment.
type Cluster struct {
	t        testing.TB
	PG       *testenv.PostgresServer
	Redis    *testenv.RedisServer
	Gateways []*testenv.Process
	Chats    []*testenv.Process
	APIs     []*testenv.Process
	// GatewayLB and APILB balance over the replicas as a load balancer would.
	GatewayLB *Balancer
	APILB     *Balancer
}

// Start brings up PostgreSQL, Redis, the schema and the replicas, each ready, and stops
// everything when the test ends.
func Start(t testing.TB, bins *Binaries, o Options) *Cluster {
	t.Helper()
	testenv.RequireServers(t)
	Exclusive(t)
	c := &Cluster{t: t, PG: testenv.StartPostgresServer(t), Redis: testenv.StartRedisServer(t)}
	common := []string{
		"PATH=" + os.Getenv("PATH"),
		"OPENVIBE_DATABASE_URL=" + c.PG.URL,
		"OPENVIBE_REDIS_URL=" + c.Redis.URL,
		"OPENVIBE_JWT_SECRET=" + JWTSecret,
		"OPENVIBE_LOG_FORMAT=text",
		"OPENVIBE_LOG_LEVEL=info",
		"OPENVIBE_SHUTDOWN_TIMEOUT=10s",
	}
	migrate := exec.Command(bins.API, "migrate")
	migrate.Env = common
	if out, err := migrate.CombinedOutput(); err != nil {
		t.Fatalf("api migrate: %v\n%s", err, out)
	}
	start := func(n int, name, bin string, extra []string) []*testenv.Process {
		var ps []*testenv.Process
		for i := range n {
			env := append(append([]string{}, common...), extra...)
			p := testenv.NewProcess(t, fmt.Sprintf("%s-%d", name, i+1), bin, env)
			p.Start()
			ps = append(ps, p)
		}
		return ps
	}
	c.Gateways = start(o.Gateways, "publish-gateway", bins.Gateway, o.GatewayEnv)
	c.Chats = start(o.Chats, "chat-socket", bins.Chat, append([]string{
		"OPENVIBE_CHAT_ALLOWED_ORIGINS=127.0.0.1",
		"OPENVIBE_CHAT_ROOM_LINGER=0s",
	}, o.ChatEnv...))
	c.APIs = start(o.APIs, "api", bins.API, append([]string{
		// The tests drive the api much faster than a person would.
		"OPENVIBE_API_USER_WRITES_PER_MINUTE=0", "OPENVIBE_API_IP_WRITES_PER_MINUTE=0",
		"OPENVIBE_API_AUTH_ATTEMPTS_PER_MINUTE=0", "OPENVIBE_API_FEED_MAX_AGE=0s",
	}, o.APIEnv...))
	for _, p := range c.All() {
		p.WaitReady(30 * time.Second)
	}
	addrs := func(ps []*testenv.Process) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Addr)
		}
		return out
	}
	if len(c.Gateways) > 0 {
		c.GatewayLB = NewBalancer(t, addrs(c.Gateways)...)
	}
	if len(c.APIs) > 0 {
		c.APILB = NewBalancer(t, addrs(c.APIs)...)
	}
	return c
}

// All returns every replica.
func (c *Cluster) All() []*testenv.Process {
	return append(append(append([]*testenv.Process{}, c.Gateways...), c.Chats...), c.APIs...)
}

// API returns a client for the api through its balancer.
func (c *Cluster) API() *API { return NewAPI(c.t, c.APILB.URL()) }

// Owner is a registered streamer with live slots and a publish token.
type Owner struct {
	*API
	Slots []Slot
	Token string // hbt_ token with vibe_coding_publish
}

// NewOwner registers a user, creates n slots (slug-1…slug-n), goes live on each and mints a
// publish token.
func (c *Cluster) NewOwner(username string, n int) *Owner {
	c.t.Helper()
	a := c.API()
	a.Register(username, "correct horse battery staple")
	o := &Owner{API: a, Token: a.CreateToken("e2e")}
	for i := range n {
		s := a.CreateSlot(fmt.Sprintf("slot-%d", i+1))
		a.GoLive(s.ID)
		o.Slots = append(o.Slots, s)
	}
	return o
}

// ChatAddrs returns the chat-socket replicas' addresses, starting with replica first.
func (c *Cluster) ChatAddrs(first int) []string {
	var out []string
	for i := range c.Chats {
		out = append(out, c.Chats[(first+i)%len(c.Chats)].Addr)
	}
	return out
}
