// Package packaging builds boardd's releases: packaging/build makes the
// binaries for each Raspberry Pi CPU and amd64, their checksums, and a
// Debian package per architecture with nfpm (nfpm.yaml, postinst, prerm,
// sysusers.conf). It has no code; its test installs a built package in a
// throw-away root and runs boardd from it. See docs/install.md.
package packaging
