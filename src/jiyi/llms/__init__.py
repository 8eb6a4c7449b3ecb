"""jiyi.llms"""
