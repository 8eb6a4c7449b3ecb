"""jiyi.stores"""
