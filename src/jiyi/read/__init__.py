"""jiyi.read"""
