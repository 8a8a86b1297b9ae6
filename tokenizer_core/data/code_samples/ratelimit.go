// Package ratelimit implements a token-bucket limiter shared by the API handlers.
package ratelimit

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// ErrLimitExceeded is returned when a caller has no tokens left.
var ErrLimitExceeded = errors.New("rate limit exceeded")

const defaultBurstSize = 20

const usageTemplate = `limit: {{.RequestsPerSecond}} req/s
burst: {{.BurstSize}}`

// Bucket holds the state of one client's token bucket.
type Bucket struct {
	mu         sync.Mutex
	tokens     float64
	lastRefill time.Time
}

// Limiter hands out tokens per client ID.
type Limiter struct {
	RequestsPerSecond float64
	BurstSize         int
	buckets           map[string]*Bucket
	mu                sync.RWMutex
	nowFunc           func() time.Time
}

// NewLimiter returns a limiter; a burst size of 0 means defaultBurstSize.
func NewLimiter(requestsPerSecond float64, burstSize int) *Limiter {
	if burstSize <= 0 {
		burstSize = defaultBurstSize
	}
	return &Limiter{
		RequestsPerSecond: requestsPerSecond,
		BurstSize:         burstSize,
		buckets:           make(map[string]*Bucket),
		nowFunc:           time.Now,
	}
}

func (l *Limiter) bucketFor(clientID string) *Bucket {
	l.mu.RLock()
	b, ok := l.buckets[clientID]
	l.mu.RUnlock()
	if ok {
		return b
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b = &Bucket{tokens: float64(l.BurstSize), lastRefill: l.nowFunc()}
	l.buckets[clientID] = b
	return b
}

// Allow takes one token for clientID or returns ErrLimitExceeded.
func (l *Limiter) Allow(clientID string) error {
	b := l.bucketFor(clientID)
	b.mu.Lock()
	defer b.mu.Unlock()
	now := l.nowFunc()
	elapsed := now.Sub(b.lastRefill).Seconds()
	b.tokens = min(float64(l.BurstSize), b.tokens+elapsed*l.RequestsPerSecond)
	b.lastRefill = now
	if b.tokens < 1 {
		return fmt.Errorf("client %q: %w", clientID, ErrLimitExceeded)
	}
	b.tokens--
	return nil
}

// Describe renders the limiter settings; the separator rune is configurable.
func (l *Limiter) Describe(sep rune) string {
	return fmt.Sprintf("%s%c%d clients", usageTemplate, sep, len(l.buckets))
}
