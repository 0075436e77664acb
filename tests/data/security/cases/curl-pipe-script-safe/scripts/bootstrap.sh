#!/usr/bin/env bash
set -euo pipefail
curl -fsSLo /tmp/bootstrap https://raw.example.com/bootstrap
gpg --verify /tmp/bootstrap.sig /tmp/bootstrap
bash /tmp/bootstrap || echo "bootstrap failed"
