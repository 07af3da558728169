#!/bin/sh
# Debian's Dafny 2.3 (through Boogie) sends Z3 the option model_compress, which Debian's
# Z3 4.8.12 rejects noisily; drop that line and pass everything else through unbuffered.
sed -u '/model_compress/d' | exec "${SAFECUT_Z3:-z3}" "$@"
