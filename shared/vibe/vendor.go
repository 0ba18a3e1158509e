package vibe

import (
	"strings"
	"sync"
)

// ruleVendorKey is a generated value right after the name of the service it unlocks:
// `cloudsmith <40 hex>`, `smartsheets=…`, `postmark: "<uuid>"`, `d7networkACCESS …`,
// `convertapi KEY …`. Most services' keys have no format of their own; what says the value
// is a key is the service's name before it.
const ruleVendorKey = "vendor-key"

// findVendorValues masks a value of a generated shape (credentialValue, randomValue) whose
// name is a service's: the word before it, after at most an `=`, `:` or `=>`, quotes and
// blanks, or that word followed by a word for a credential (`karma PRIVATE …`), where the
// word, or one of its snake, kebab or camel parts, with a glued KEY, TOKEN, ACCESS, PRIVATE,
// SECRET or API taken off, is in vendorNames. The scan looks back from values only, and a
// value needs a digit, so ordinary text costs one pass over its bytes.
func findVendorValues(chunk string, off int, f *findings) {
	for i := 0; i < len(chunk); {
		if vendorBytes[chunk[i]] == 0 {
			i++
			continue
		}
		start := i
		digit := false
		// An = inside a value once it has had a digit (base64: …XYZ+=Sdf==); before, it
		// is the assignment after a name (smartsheets=…), where the value starts over. A /
		// inside one is base64's too.
		for i < len(chunk) {
			c := vendorBytes[chunk[i]]
			if c == 0 && !(chunk[i] == '=' && digit || chunk[i] == '/' && i+1 < len(chunk) && isWordByte(chunk[i+1])) {
				break
			}
			digit = digit || c == 2
			i++
		}
		end := i
		if !digit || end-start < 12 || end-start > 400 || start > 0 && strings.IndexByte(".@/:", chunk[start-1]) >= 0 ||
			end < len(chunk) && (chunk[end] == '.' && end+1 < len(chunk) && isWordByte(chunk[end+1]) || strings.IndexByte("@/:", chunk[end]) >= 0) {
			continue // a host, a path, an address, a dotted name, a time
		}
		named := false
		if eq := strings.IndexByte(chunk[start:end], '='); eq > 0 && vendorName(chunk[start:start+eq]) {
			start, named = start+eq+1, true // auth0=…: the name had a digit, so the = stayed in the run
		}
		if end-start < 12 || !named && !vendorNameBefore(chunk, start) {
			continue
		}
		v := chunk[start:end]
		if (len(v) == 40 || len(v) == 64) && isHex(v) && (gitRefBefore(chunk, start) || commitListed(chunk, start, end)) {
			continue // HEAD=14a3185e…: a commit the ref names; Python de54…, Braintrust 3534…: each project's commit
		}
		if modelNamePairs(v) {
			continue // DEPLOYMENT_NAME_MAP=gpt-4=my-gpt4: a model's name and what a deployment calls it
		}
		if (v[len(v)-1] == '-' || v[len(v)-1] == '_') && (strings.HasPrefix(chunk[end:], "...") || strings.HasPrefix(chunk[end:], "…")) {
			continue // ANTHROPIC_API_KEY=sk-ant-api03-...: a format's prefix, its body left out
		}
		if (credentialValue(v) || randomValue(v)) && !wordyValue(v) && !datedName(v) && !providerModelName(v) && !strings.HasSuffix(strings.ToLower(v), "abc123") && !idHeaderValue(chunk, start) && !selfNamed(chunk, start, v) && !refinedName(chunk, start, v) && !paddedHex(v) && !numberedWords(v) && !pathOfWords(v) && !alphabetRun(v) {
			f.addSpan(ruleVendorKey, off+start, off+end)
		}
	}
}

// commitListed reports a 40 or 64 hex digits' run on a line that lists another such run after
// a word that names no service (Python de5466fe…, Braintrust 3534f4bc…, Opik 6387ef19…): the
// commits of projects listed side by side, not a service's key.
func commitListed(chunk string, start, end int) bool {
	ls := strings.LastIndexByte(chunk[:start], '\n') + 1
	le := len(chunk)
	if k := strings.IndexByte(chunk[end:], '\n'); k >= 0 {
		le = end + k
	}
	sep := func(c byte) bool { return c == ' ' || c == ',' || c == ';' || c == '\t' }
	for i := ls; i < le; {
		if sep(chunk[i]) {
			i++
			continue
		}
		j := i // a field of the line, between blanks, commas and semicolons
		for j < le && !sep(chunk[j]) {
			j++
		}
		if n := j - i; (n == 40 || n == 64) && i != start && isHex(chunk[i:j]) {
			before := strings.TrimRight(chunk[ls:i], " \t:=")
			k := len(before)
			for k > 0 && isWordByte(before[k-1]) {
				k--
			}
			if word := before[k:]; word != "" && !vendorName(word) {
				return true
			}
		}
		i = j
	}
	return false
}

// modelNamePairs reports pairs of names joined by = (gpt-4=my-gpt4, gpt-4o-mini=prod-mini):
// every side a word's parts with short numbers, as a map of model names writes them.
func modelNamePairs(v string) bool {
	sides := strings.Split(v, "=")
	if len(sides) < 2 {
		return false
	}
	for _, side := range sides {
		if side == "" || !wordyParts(side) {
			return false
		}
		for _, p := range strings.FieldsFunc(side, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
			if len(p) > 12 || randomValue(p) {
				return false
			}
		}
	}
	return true
}

// gitRefBefore reports git's name of a ref right before start, after an = or a colon and
// blanks (HEAD=<sha>, ORIG_HEAD: <sha>, FETCH_HEAD <sha>).
func gitRefBefore(chunk string, start int) bool {
	head := strings.TrimRight(chunk[:start], " \t=:\"'")
	return strings.HasSuffix(head, "HEAD") && (len(head) == 4 || !isWordByte(head[len(head)-5]) || strings.HasSuffix(head, "_HEAD"))
}

// pathOfWords reports a relative path whose every segment is words and numbers
// (BUNDLE_GEMFILE=gemfiles/Gemfile-rails-8-0): a file, not a key.
func pathOfWords(v string) bool {
	if !strings.Contains(v, "/") {
		return false
	}
	for _, seg := range strings.Split(v, "/") {
		if seg == "" || !wordParts(seg, 1) || randomValue(seg) {
			return false
		}
	}
	return true
}

// numberedWords reports words joined by dashes ending in a number (a utility class after a
// vendor's name in a class list: ease-linear duration-200, a versioned name): no key.
func numberedWords(v string) bool {
	i := strings.LastIndexByte(v, '-')
	if i <= 0 || !isDigits(v[i+1:]) {
		return false
	}
	for _, w := range strings.Split(v[:i], "-") {
		if w == "" || !allLetters(w) || strings.ToLower(w) != w {
			return false
		}
	}
	return true
}

// paddedHex reports a hexadecimal number written with its leading zeros (0x00000000004777f4,
// an address or an offset in a tool's listing): four zeros after 0x at least.
func paddedHex(v string) bool {
	return len(v) > 6 && (strings.HasPrefix(v, "0x") || strings.HasPrefix(v, "0X")) && strings.HasPrefix(v[2:], "0000") && isHex(v[2:])
}

// selfNamed reports a value that is the name it is given to (#define NL80211_ATTR_FRAME
// NL80211_ATTR_FRAME, a macro defined as itself so that code can test for it): a name, not
// a value.
func selfNamed(s string, i int, v string) bool {
	j := nameEndBefore(s, i)
	return j < i && strings.HasSuffix(s[:j], v) && (j == len(v) || !isWordByte(s[j-len(v)-1]))
}

// nameEndBefore returns where the name a value at s[i:] is given to ends: back over at most
// six blanks, quotes and the =, : or > between them.
func nameEndBefore(s string, i int) int {
	j := i
	for k := 0; k < 6 && j > 0 && strings.IndexByte(" \t\"'`=:>", s[j-1]) >= 0; k++ {
		j--
	}
	return j
}

// refinedName reports a value that opens with the name it is given to and goes on with a
// version and a date ("deepseek-v3": "DeepSeek-V3-0324", "gpt-4o": "gpt-4o-2024-08-06"): an
// alias's model, not a key.
func refinedName(s string, i int, v string) bool {
	j := nameEndBefore(s, i)
	k := j
	for k > 0 && (isWordByte(s[k-1]) || s[k-1] == '-' || s[k-1] == '.') {
		k--
	}
	name := s[k:j]
	if j == i || len(name) < 3 || len(v) <= len(name)+1 || !strings.EqualFold(v[:len(name)], name) || strings.IndexByte("-_.", v[len(name)]) < 0 {
		return false
	}
	for _, seg := range strings.FieldsFunc(v[len(name):], func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		if len(seg) > 8 || !allLettersDigits(seg) {
			return false
		}
	}
	return true
}

// wordyValue reports a value joined from words (newsletter_template_2024, build-cache-v12):
// two or more of its -, _ or + separated parts are words of three or more letters with a
// vowel, in lower case or capitalised. A value of hex digits and separators only is a key
// however its groups read (the UUID 8ef52dff-cbbe-f09f-abbe-40cfec6aae9f has "cbbe" and "abbe").
func wordyValue(v string) bool {
	if strings.Trim(v, "0123456789abcdefABCDEF-") == "" {
		return false
	}
	words := 0
	for _, p := range strings.FieldsFunc(v, func(r rune) bool { return r == '_' || r == '-' || r == '+' }) {
		if len(p) < 3 || !identifierWords(p) || strings.ContainsAny(p, ".:_-") || !strings.ContainsAny(strings.ToLower(p), "aeiouy") ||
			strings.ToLower(p[1:]) != p[1:] {
			continue
		}
		words++
	}
	return words >= 2
}

// vendorBytes classes the bytes of a generated value: 1 for letters, _, - and +, 2 for digits.
var vendorBytes = func() (t [256]byte) {
	for c := 0; c < 256; c++ {
		switch {
		case c >= '0' && c <= '9':
			t[c] = 2
		case isWordByte(byte(c)) || c == '-' || c == '+':
			t[c] = 1
		}
	}
	return t
}()

// vendorNameBefore reports whether the value at s[i:] follows a service's name.
func vendorNameBefore(s string, i int) bool {
	j := i
	// The assignment between name and value: quotes, blanks, one of = : => and no more.
	for k := 0; k < 6 && j > 0 && strings.IndexByte(" \t\"'`=:>", s[j-1]) >= 0; k++ {
		j--
	}
	if j == i || j == 0 {
		return false
	}
	for words := 0; words < 2; words++ {
		ns := j
		for ns > 0 && j-ns < 60 && (isWordByte(s[ns-1]) || s[ns-1] == '-') {
			ns--
		}
		if ns == j || ns > 0 && (s[ns-1] == '.' || s[ns-1] == '/' || s[ns-1] == '$' || s[ns-1] == '@') {
			return false // a host, a path, a variable
		}
		name := s[ns:j]
		if words == 0 && envSecretName(s, ns, j, i) {
			return true
		}
		if vendorName(name) {
			// not a name that says id (ELEVENLABS_VOICE_ID, MAILCHIMP_LIST_ID): a handle
			parts := nameParts(name)
			return len(parts) == 0 || !idNameParts[parts[len(parts)-1]] || words > 0
		}
		if !credentialWord(strings.ToLower(name)) || ns == 0 || s[ns-1] != ' ' {
			return false
		}
		j = ns - 1 // karma PRIVATE …, convertapi KEY …: the service's name is the word before
	}
	return false
}

// envSecretName reports the name of an environment variable that an .env file, a shell's
// export or a Dockerfile's ENV sets at s[ns:j], its value right after the = at i: a name in
// upper snake case at the line's start, none of whose parts says the value is an id, an
// address, a place or a setting (TRANSPOSE=cdce91dd…, ELOQUA_SITE_NAME is a name, GIT_SHA a
// digest). An .env file's generated values are its keys; the value must still look generated.
func envSecretName(s string, ns, j, i int) bool {
	if j >= len(s) || j-ns < 3 {
		return false
	}
	if s[j] != '=' || i > j+2 {
		return false
	}
	name := s[ns:j]
	if !isLetter(name[0]) {
		return false
	}
	raw := s[strings.LastIndexByte(s[:ns], '\n')+1 : ns]
	switch head := strings.TrimLeft(raw, " \t"); {
	case raw == "", raw == "+", raw == "-", head == "export ", head == "ENV ", head == "- ":
	default:
		return false // indented: a line of code or of another file's syntax
	}
	return !nameSaysNoKey(name)
}

// nameSaysNoKey reports a name one of whose parts says its value is an id, a digest, an
// address, a place or a setting, or a key that opens nothing (IDEMPOTENCY_KEY, CACHE_KEY).
func nameSaysNoKey(name string) bool {
	for _, p := range nameParts(name) {
		if idNameParts[p] || envSettingParts[p] || keyQualifiers[p] {
			return true
		}
	}
	return false
}

// keyQualifiers are the words before KEY in the name of a key that is no credential: a
// public, database, cache or idempotency key.
var keyQualifiers = map[string]bool{"primary": true, "foreign": true, "sort": true, "partition": true,
	"idempotency": true, "lookup": true, "unique": true, "dedup": true, "dedupe": true, "routing": true, "shard": true}

// envSettingParts are the parts of an environment variable's name that say its value is an
// address, a place, a count or a setting.
var envSettingParts = map[string]bool{"host": true, "hostname": true, "dir": true, "region": true, "zone": true,
	"env": true, "mode": true, "level": true, "port": true, "domain": true, "endpoint": true, "bucket": true,
	"project": true, "org": true, "account": true, "channel": true, "site": true, "locale": true, "lang": true,
	"timezone": true, "tz": true, "color": true, "colour": true, "theme": true, "format": true, "term": true,
	"shell": true, "editor": true, "visual": true, "pager": true, "browser": true,
	"timeout": true, "ttl": true, "size": true, "limit": true, "count": true, "max": true, "min": true, "node": true,
	"cluster": true, "namespace": true, "queue": true, "topic": true, "table": true, "database": true, "db": true,
	"schema": true, "model": true, "arch": true, "platform": true, "os": true, "branch": true, "release": true,
	"pid": true, "uid": true, "gid": true, "tmp": true, "temp": true, "cache": true, "log": true, "home": true,
	"public": true, "pub": true, "aliases": true, "alias": true, "md5": true, "sha384": true, "crc": true, "crc32": true,
	"blake2": true, "gpg": true, "pgp": true, "gnupg": true, "asc": true, "sum": true, "sums": true, "shasum": true, "pubkey": true, "sig": true, "signature": true, "signatures": true, "keyid": true}

// credentialWord reports the words that follow a service's name to say which of its values
// comes next.
func credentialWord(w string) bool {
	switch w {
	case "key", "token", "secret", "access", "private", "api", "apikey", "api_key", "api-key", "auth", "pat":
		return true
	}
	return false
}

// vendorName reports whether name is, or has a part that is, a service's name.
func vendorName(name string) bool {
	names := vendorNames()
	for _, p := range nameParts(name) {
		for p != "" {
			if names[p] {
				return true
			}
			q := trimCredentialSuffix(p)
			if q == p {
				break
			}
			p = q
		}
	}
	return false
}

// trimCredentialSuffix takes a glued credential word off the end of a name part:
// d7networkaccess → d7network, collect2private → collect2.
func trimCredentialSuffix(p string) string {
	for _, s := range []string{"apikey", "token", "access", "private", "secret", "key", "api", "auth"} {
		if len(p) > len(s)+3 && strings.HasSuffix(p, s) {
			return strings.TrimRight(p[:len(p)-len(s)], "_-")
		}
	}
	return p
}

// vendorNames are the services whose keys scanners look for, as facts: the detector names
// of TruffleHog (pkg/detectors), Kingfisher (data/rules), Nosey Parker (its builtin rules) and
// KeyHog (detectors/*.toml) at the snapshots testdata/eval/manifest.json names, lower-cased, with the credential word
// they end in (apikey, token, secret, oauth…) taken off. Left out are names that are common
// words or generic technology (line, front, segment, docker, redis, ldap, user) and the
// code hosts whose names precede commit hashes (github, gitlab, bitbucket). The line before
// the last holds the names as people write them, without a product suffix the detector's
// name has (nozbe of nozbeteams, mailjet of mailjetsms, checkly of checklyhq); the last,
// KeyHog's services that its evaluation's development half showed missing.
var vendorNames = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(vendorNameList) {
		m[w] = true
	}
	return m
})

const vendorNameList = `
abuseipdb abyssale accuweather adafruitio adobe adobeio adzuna aeroworkflow airbrake
airbrakeproject airbrakeuser airship airtable airvisual aiven alchemy alconost alegra
aletheiaapi algolia algoliaadmin alibaba alienvault allsports amadeus ambee amplitude anthropic
anypoint apacta api2cart apideck apiflash apifonica apify apilayer apimatic apimetrics
apitemplate appcues appfollow appointedd appoptics appsynergy apptivo artifactory
artifactoryreference artsy asana assemblyai atera atlassian atlassiandatacenter audd auth0
auth0management autodesk autoklose autopilot avaza aviationstack axonaut aylien ayrshare
azureapimanagement azureapimanagementsubscription azureappconfigconnectionstring azurebatch
azurecontainerregistry azurecosmosdb azuredevops azuredirectmanagement azureentra azurefunction
azureopenai azuresas azuresearchadmin azuresearchquery bannerbear baremetrics beebole besnappy
besttime betterstack billomat bitbar bitbucketapppassword bitcoinaverage bitfinex bitly bitmex
blazemeter blitapp blocknative blynk bombbomb boostnote borgbase braintreepayments braintrust
brandfetch browserstack browshot bscscan buddyns budibase bugherd bugsnag buildkite bulbul
bulksms buttercms caflou calendarific calendly calorieninja campayn cannyio capsulecrm
captaindata carboninterface cashboard caspio censys centralstationcrm cexio chartmogul chatfule
checio checklyhq checkvist circleci clarifai clearbit clickhelp clicksendsms clickup
clickuppersonal cliengo clientary clinchpad clockify clockworksms closecrm cloudconvert
cloudelements cloudflare cloudflareca cloudflareglobal cloudimage cloudinary cloudmersive
cloudplan cloudsight cloudsmith cloverly cloze clustdoc codacy codeclimate codemagic codequiry
coinapi coinbase coinlayer coinlib collect2 commercejs companyhub confluent contentful
conversiontools convertapi convertkit convier countrylayer coveralls craftmypdf crates crowdin
cryptocompare currencycloud currencyfreaks currencylayer currencyscoop currentsapi customerguru
customerio d7network dailyco dandelion dareboost databox databricks datadog datagov debounce
deepai deepgram deepseek delighted demio dependencytrack detectify detectlanguage dfuse diffbot
diggernaut digitalocean discord discordbot disqus dnscheck docparser documo docusign doppler
dotdigital dovico dronahq droneci dropbox duffel duply dwolla dynalist dynatrace dyspatch
eagleeyenetworks easyinsight easypost ecostruxureit edamam edenai eightxeight elasticemail
elevenlabs enablex endorlabs etherscan ethplorer eventbrite everhour exchangerateapi
exchangeratesapi exportsdk extractorapi facebook faceplusplus fastforex fastly fastlypersonal
feedier fetchrss fibery figma fileio finage financialmodelingprep finicity finnhub firecrawl
fixerio flatio fleetbase flexport flickr flightapi flightlabs flightstats flowflu flutterwave
flyio fmfw formbucket formcraft formio formsite foursquare frame frameio freshbooks freshdesk
fullstory fxmarket gcpapplicationdefault geckoboard gengo geoapify geocode geocodify geocodio
geoipifi getemail getemails getgeoapi getgist getresponse getsandbox gitalk glassnode gocanvas
gocardless godaddy goodday grafana grafanaserviceaccount graphcms graphhopper groovehq groq
gtmetrix guardianapi gumroad gyazo happyscribe hasura hellosign helpcrunch helpscout hereapi
heroku hiveage holidayapi honeycomb html2pdf hubspot huggingface hybiscus hypertrack
ibmclouduser iconfinder iexapis iexcloud imagekit imagga infura insightly instabot instamojo
intercom interseller intra42 intrinio invoiceocean ip2location ipapi ipgeolocation ipinfo
ipinfodb ipquality ipstack jina jira jotform jumpcloud jupiterone juro kagi kanbantool karmacrm
keenio kickbox klaviyo klipfolio knapsackpro kontent kucoin kylas langfuse langsmith
languagelayer larksuite launchdarkly leadfeeder lemlist lemonsqueezy lendflow lessannoyingcrm
lexigram linear linearapi linemessaging linenotify linkedin linkpreview liveagent livestorm
loadmill locationiq loggly loginradius logzio lokalise loyverse lunchmoney madkudu magicbell
mailboxlayer mailchimp mailerlite mailgun mailjetbasicauth mailjetsms mailmodo mailsac mandrill
mapbox mapquest marketstack mattermostpersonal mavenlink maxmindlicense meaningcloud mediastack
meistertask meraki mesibo messagebird metaapi metabase metrilo microsoftteams mindmeister miro
mixmax mixpanel mockaroo monkeylearn moonclerk moosend moralis mrticktock myfreshworks
myintervals nasdaqdatalink nethunt netlify netsuite neutrinoapi newrelic newrelicbrowser
newrelicinsightsinsert newrelicinsightsquery newreliclicense newrelicmobileapp newrelicpersonal
newrelicuser newsapi newscatcher nexmo nftport ngrok nicereply nightfall noticeable notion
nozbeteams nuget numverify nutritionix nvapi nylas oanda octopusdeploy okta omnisend onedesk
onelogin onepagecrm onesignal onfleet oopspam openai openaiadmin opencagedata openrouter openuv
openweather opsgenie optimizely overloop owlbot packagecloud pagarme pagerduty pandadoc
pandascore paperform paralleldots parsehub parseur particle partnerstack pastebin paydirtapp
paymoapp paymongo paypal paystack pdflayer pdfshift peopledatalabs pepipost pganalyzeread
photoroom phpmailer pinata pinecone pipedream pipedrive pivotaltracker pixabay plaid planetscale
planetscaledb planviewleankit planyo plivo podio pollsapi poloniex portainer positionstack
postageapp postbacks posthog postman postmark powrbot prodpad prospectcrm protocolsio proxycrawl
pubnub pubnubpublish pubnubsubscription pulumi purestake pushbullet pusherchannel pypi qase
qualaroo qubole railwayapp rapidapi rawg razorpay reachmail reallysimplesystems rebrandly
recaptcha rechargepayments redhatpyxis rentman repairshopr replicate replyio requestfinance
restpack restpackhtmltopdfapi restpackscreenshotapi revampcrm ringcentral ritekit
robinhoodcrypto rocketreach rockset rootly route4me rownd rubygems runrunit saladcloud
salesblink salescookie salesflare salesforce salesforcerefresh salesmate satismeterproject
satismeterwrite saucelabs scaleway scalr scrapeowl scraperapi scraperbox scrapestack scrapfly
scrapingant scrapingbee screenshotapi screenshotlayer scrutinizerci securitytrails selectpdf
sendbird sendbirdorganizationapi sendgrid sendinblue sentry sentryorg serphouse serpstack sheety
sherpadesk shipday shippo shodan shopify shotstack shutterstock signalwire signaturit
signupgenius sigopt simfin simplesat simplynoted simvoly sinchmessage sirv siteleaf skrappio
skybiometry slack smartsheets smartystreets smooch snipcart snyk solarwindsobservability
sonarcloud sonarqube sourcegraph sourcegraphcody sparkpost spectralops speechtextai splunk
splunkobservability spoonacular sportsmonk spotify square squareapp squarespace squareup sslmate
stackhawk statuscake statuspage statuspal stitchdata stockdata storecove stormboard stormglass
storyblok storychief strava stripe stripepaymentintent stripo stytch sugester sumologic supabase
supernotesapi surveyanyplace surveybot surveysparrow survicate swiftype tableau tailscale
tallyfy tatumio tavily taxjar teamcity teamgate teamworkcrm teamworkdesk teamworkspaces
technicalanalysisapi tefter telegram telegrambot teletype telnyx terraformcloud
terraformcloudpersonal testingbot textmagic theoddsapi thingsboard thinkific thousandeyes
ticketmaster tickettailor tiingo timecamp timezoneapi tmetric todoist toggltrack tokeet
tomorrowio tomtom tradier transferwise travelpayouts travisci trello trufflehogenterprise
twelvedata twilio twitch twitter twitterconsumer tyntec typeform typetalk ubidots uclassify
unifyid unplugg unsplash upcdatabase uplead uploadcare uptimerobot upwave urlscan userflow
userstack vagrantcloud vagrantcloudpersonal vatlayer vbout vercel verimail veriphone versioneye
viewneo virustotal visualcrossing voiceflow voicegain voodoosms vouchery vpnapi vultr vyte
walkscore weatherbit weatherstack web3storage webex webexbot webflow webscraper webscraping
websitepulse weightsandbiases wepay whoxy wistia worksnaps workstack worldcoinindex worldweather
wrike yandex yelp youneedabudget yousign zapier zendeskapi zenkitapi zenrows zenscrape zenserp
zeplin zerobounce zerotier zipapi zipbooks zipcodeapi zipcodebase zohocrm zonkafeedback
zulipchat
adafruit aletheia canny centralstation checkly clicksend drona lessannoying mailjet mattermost neutrino nozbe
paydirt paymo skrapp supernotes tatum theodds zendesk zenkit
brightdata lastfm magento mastodon misp musixmatch playht qualys routee
`

// providerModelName reports a model's name as providers write it: short parts joined by dashes, one of
// them a parameter count (gemma2-9b-it, qwen-qwq-32b, llama-3.1-70b-versatile,
// mixtral-8x7b-32768), after a provider's name that would otherwise read as its key's.
func providerModelName(v string) bool {
	parts := strings.Split(v, "-")
	if len(parts) < 2 {
		return false
	}
	count := false
	for _, p := range parts {
		if p == "" || len(p) > 12 {
			return false
		}
		if n := strings.TrimRight(p, "bBmMkK"); n != p && len(p)-len(n) == 1 && n != "" && strings.Trim(n, "0123456789.x") == "" {
			count = true
		}
	}
	return count
}
