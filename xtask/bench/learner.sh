# Sourced by the benchmarks that submit scripts.
#
# learner_token SERVER DIR: signs up bench@example.org the way a learner does in a browser
# (cookies kept in DIR/jar), makes a terminal token on the account page, and prints it.
learner_token() {
  local server=$1 jar=$2/jar token
  curl -fs -o /dev/null -c "$jar" -H "Sec-Fetch-Site: same-origin" \
    --data-urlencode "email=bench@example.org" --data-urlencode "password=steady state throughput" \
    "$server/account/sign-up"
  curl -fs -o /dev/null -b "$jar" -c "$jar" -H "Sec-Fetch-Site: same-origin" -X POST \
    "$server/account/token"
  token=$(curl -fs -b "$jar" "$server/account" | grep -o 'lsl_[0-9a-f]*' | head -1)
  [ -n "$token" ] || { echo "could not make a terminal token" >&2; return 1; }
  echo "$token"
}
