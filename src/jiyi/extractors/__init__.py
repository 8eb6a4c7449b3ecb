"""jiyi.extractors"""
