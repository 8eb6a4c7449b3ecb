"""jiyi.embedders"""
