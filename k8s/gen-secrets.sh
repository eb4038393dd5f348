#!/bin/sh
# Writes the two git-ignored files an overlay's secretGenerator reads, with
# fresh random values:
#   secrets.env   ADMIN_TOKEN and MONGO_URL (app Secret article-platform-secrets)
#   mongodb.env   root user of the in-cluster MongoDB (Secret mongodb-credentials)
# MONGO_URL is built from the same user and password as mongodb.env.
#
# Usage: k8s/gen-secrets.sh k8s/overlays/dev
#
# Existing files are left alone (the MongoDB root user is created from
# mongodb.env on the first start only, so regenerating it later would lock
# the app out). With a managed MongoDB, edit MONGO_URL in secrets.env
# afterwards. Add LLM_API_KEY / EMBEDDINGS_API_KEY there when needed.
set -eu

dir=${1:?usage: $0 <overlay directory>}
[ -d "$dir" ] || { echo "no such directory: $dir" >&2; exit 1; }
for f in secrets.env mongodb.env; do
  if [ -e "$dir/$f" ]; then
    echo "$dir/$f exists; not overwriting (delete it first to regenerate)" >&2
    exit 1
  fi
done

# hex: safe in a URL without escaping
rand() { od -An -tx1 -N"$1" /dev/urandom | tr -d ' \n'; }

user=platform
password=$(rand 24)
umask 077

cat > "$dir/mongodb.env" <<EOT
MONGO_INITDB_ROOT_USERNAME=$user
MONGO_INITDB_ROOT_PASSWORD=$password
EOT

cat > "$dir/secrets.env" <<EOT
ADMIN_TOKEN=$(rand 32)
MONGO_URL=mongodb://$user:$password@mongodb:27017/?authSource=admin
INTEGRATIONS_ENCRYPTION_KEYS=k1:$(head -c 32 /dev/urandom | base64 | tr -d '\n')
# LLM_API_KEY=
# EMBEDDINGS_API_KEY=
# TAVILY_API_KEY=
# BRAVE_SEARCH_API_KEY=
EOT

echo "wrote $dir/secrets.env and $dir/mongodb.env (git-ignored)"
