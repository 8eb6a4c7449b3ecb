"""jiyi.text"""
