import os
DEBUG = False
GITHUB_TOKEN = "ghp_Abcdefghijklmnopqrstuvwxyz0123456789"
AWS_ACCESS_KEY_ID = "AKIAIOSFODNN7EXAMPLQ"
