#!/bin/sh
BACKUP_DIR=/var/backups
echo "unterminated $BACKUP_DIR hiddenShellText
rm -rf "$REOPENED_VAR"
