package auth

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// JWTConfig configures user session tokens. HS256 with a shared secret; issuer, audience and
// expiry are always required and checked.
type JWTConfig struct {
	Secret   []byte
	Issuer   string
	Audience string
	TTL      time.Duration
}

// MinSecretBytes is the shortest accepted HS256 secret.
const MinSecretBytes = 32

// Claims are what a verified session token says.
type Claims struct {
	UserID   int64
	Username string
}

// JWT issues and verifies user session tokens.
type JWT struct {
	cfg JWTConfig
}

type sessionClaims struct {
	Username string `json:"username"`
	jwt.RegisteredClaims
}

// NewJWT validates cfg.
func NewJWT(cfg JWTConfig) (*JWT, error) {
	var errs []error
	if len(cfg.Secret) < MinSecretBytes {
		errs = append(errs, fmt.Errorf("jwt secret must be at least %d bytes", MinSecretBytes))
	}
	if cfg.Issuer == "" {
		errs = append(errs, errors.New("jwt issuer is required"))
	}
	if cfg.Audience == "" {
		errs = append(errs, errors.New("jwt audience is required"))
	}
	if cfg.TTL <= 0 {
		errs = append(errs, errors.New("jwt ttl must be positive"))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &JWT{cfg: cfg}, nil
}

// Issue signs a session token for the user.
func (j *JWT) Issue(userID int64, username string, now time.Time) (string, time.Time, error) {
	exp := now.Add(j.cfg.TTL)
	claims := sessionClaims{
		Username: username,
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    j.cfg.Issuer,
			Subject:   strconv.FormatInt(userID, 10),
			Audience:  jwt.ClaimStrings{j.cfg.Audience},
			IssuedAt:  jwt.NewNumericDate(now),
			NotBefore: jwt.NewNumericDate(now.Add(-time.Minute)),
			ExpiresAt: jwt.NewNumericDate(exp),
		},
	}
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(j.cfg.Secret)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("sign session token: %w", err)
	}
	return s, exp, nil
}

// Verify checks the signature (HS256 only), issuer, audience and expiry.
func (j *JWT) Verify(token string, now time.Time) (Claims, error) {
	var claims sessionClaims
	parser := jwt.NewParser(
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(j.cfg.Issuer),
		jwt.WithAudience(j.cfg.Audience),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(func() time.Time { return now }),
	)
	_, err := parser.ParseWithClaims(token, &claims, func(*jwt.Token) (any, error) { return j.cfg.Secret, nil })
	if err != nil {
		return Claims{}, fmt.Errorf("%w: %w", ErrUnauthenticated, err)
	}
	id, err := strconv.ParseInt(claims.Subject, 10, 64)
	if err != nil || id <= 0 {
		return Claims{}, fmt.Errorf("%w: bad subject", ErrUnauthenticated)
	}
	return Claims{UserID: id, Username: claims.Username}, nil
}
