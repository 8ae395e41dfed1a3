# The dialtone image: the CLI and its built-in load engine on Node 26 (the active LTS), with Debian's Chromium for the voice-browser
# scenario. No k6 in it, ever: the built-in engine runs the scenarios. k6 users keep the k6-operator with k6's own image
# (`dialtone k6-operator`); `dialtone k8s-job` writes the Indexed Job that runs this one.
#
#   docker build -t dialtone:0.1.0 .      (the tag k8s-job uses by default: dialtone:VERSION, from package.json)
#   docker run --rm dialtone:0.1.0 npx dialtone load chat-turns --target /config/profile.json --engine builtin
FROM node:26-trixie-slim

# Chromium for voice-browser (found on PATH as `chromium`), CA certificates for the targets' TLS.
RUN apt-get update \
  && apt-get install -y --no-install-recommends chromium ca-certificates \
  && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# The CLI runs its TypeScript through tsx, a runtime dependency: no build step and no dev dependencies. The postinstall
# (scripts/setup.mjs) would build the Go test tools and install Chromium: the DIALTONE_SKIP_* variables turn both off.
COPY package.json package-lock.json ./
COPY scripts/setup.mjs scripts/setup.mjs
RUN DIALTONE_SKIP_TOOLS=1 DIALTONE_SKIP_CHROMIUM=1 npm ci --omit=dev --no-audit --no-fund \
  && npm cache clean --force
COPY . .
# The default report and profile folders, writable by the user the image runs as.
RUN mkdir -p reports .dialtone && chown node:node reports .dialtone

ENV DIALTONE_ENGINE=builtin \
    NPM_CONFIG_UPDATE_NOTIFIER=false
USER node
CMD ["npx", "dialtone", "--help"]
